import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.transfer import event_export


class Command(BaseCommand):
    help = "Writes a whole event as JSON to standard output: manage.py export_event 12 > e.json"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(id=options["event_id"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event_id']}.")
        self.stdout.write(json.dumps(event_export(event=event), indent=1))
