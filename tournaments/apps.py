from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Events"

    def ready(self) -> None:
        from .receivers import connect
        from .standings.cache import connect as connect_standings_cache

        connect()
        connect_standings_cache()  # after: it reads the result the receivers above carried on
