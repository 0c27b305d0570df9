from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Games and hands"

    def ready(self) -> None:
        from kaiser_club.people import register

        from .people import GamesAndTeams

        register(GamesAndTeams())
