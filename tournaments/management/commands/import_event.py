import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.transfer import ImportRefused, event_import


class Command(BaseCommand):
    help = "Imports an exported event (a JSON file, or - for standard input) as a new event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                import sys

                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as handle:
                    data = json.load(handle)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        try:
            event = event_import(data=data)
        except ImportRefused as exc:
            raise CommandError(f"Nothing was imported. {exc}") from None
        self.stdout.write(self.style.SUCCESS(f"Imported as event {event.id}: {event.name}."))
