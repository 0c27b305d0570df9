import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from kaiser_club.errors import KaiserError
from tournaments.transfer import event_import, read_document


class Command(BaseCommand):
    help = (
        "Imports an exported event (a JSON file, or - for standard input) as a new event. "
        "Without --user it runs as the server's operator, who may do what staff may; with "
        "--user it is scoped by that user's roles, as the page and the API are."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--user",
            metavar="USERNAME",
            help="Import as this user: the same checks and the same answers as their page.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"There is no user {options['user']}.")
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    raw = handle.read()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        try:
            result = event_import(data=read_document(raw), actor=actor)
        except KaiserError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported as event {result.event.id}: {result.event.name}.")
        )
        for note in result.notes:
            self.stdout.write(str(note))
