from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Events"

    def ready(self) -> None:
        from scoring.gates import register
        from scoring.places import register as register_places
        from scoring.results import register as register_settler

        from . import tasks  # noqa: F401  (every task registered: services queue them by name)
        from .game_gate import GATE_READS, GATE_RELATED, event_gate
        from .game_place import event_places
        from .game_result import RESULT_READS, RESULT_RELATED, event_settler
        from .outbox import tasks as outbox_tasks  # noqa: F401
        from .outbox.receivers import connect as connect_outbox
        from .receivers import connect
        from .reports import tasks as reports_tasks  # noqa: F401
        from .standings import tasks as standings_tasks  # noqa: F401
        from .standings.cache import connect as connect_standings_cache
        from .version_triggers import restore_sqlite_triggers

        connect()
        register(event_gate, related=GATE_RELATED, reads=GATE_READS)
        register_settler(event_settler, related=RESULT_RELATED, reads=RESULT_READS)
        register_places(event_places)
        connect_standings_cache()  # after: it reads the result the receivers above carried on
        connect_outbox()
        post_migrate.connect(restore_sqlite_triggers, sender=self)
