from django.apps import AppConfig


class KaiserClubConfig(AppConfig):
    name = "kaiser_club"
    verbose_name = "Clubs and people"

    def ready(self) -> None:
        from . import client_address  # noqa: F401  (registers the DJANGO_TRUSTED_PROXIES check)
