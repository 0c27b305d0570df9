from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Events"

    def ready(self) -> None:
        from scoring.gates import register

        from .game_gate import GATE_READS, GATE_RELATED, event_gate
        from .receivers import connect
        from .standings.cache import connect as connect_standings_cache

        connect()
        register(event_gate, related=GATE_RELATED, reads=GATE_READS)
        connect_standings_cache()  # after: it reads the result the receivers above carried on
