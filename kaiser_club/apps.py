from django.apps import AppConfig


class KaiserClubConfig(AppConfig):
    name = "kaiser_club"
    verbose_name = "Clubs and people"
