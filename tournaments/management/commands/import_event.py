import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from kaiser_club.errors import KaiserError
from tournaments.transfer import event_import, event_import_preview, parse_people, read_document
from tournaments.transfer.limits import check_document_size, check_file_size


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
        parser.add_argument(
            "--person",
            action="append",
            default=[],
            metavar="REF=ID",
            help="Which record the file's player REF is: a record's id, or new (a new "
            "record). For a player more than one record could be; the dry run lists them.",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Only say what the import would do; nothing is written.",
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
        people = []
        try:
            check_file_size(len(raw))
            data = read_document(raw)
            check_document_size(data)
            choices = parse_people(options["person"])
            if options["dry_run"]:
                preview = event_import_preview(data=data, actor=actor, choices=choices)
                self.stdout.write(
                    f"Would import {preview.name} ({preview.club}): "
                    + ", ".join(f"{what} {n}" for what, n in preview.counts.items())
                    + ". Nothing was imported."
                )
                notes = preview.notes
                people = preview.people
            else:
                result = event_import(data=data, actor=actor, choices=choices)
                self.stdout.write(
                    self.style.SUCCESS(f"Imported as event {result.event.id}: {result.event.name}.")
                )
                notes = result.notes
        except KaiserError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        for note in notes:
            self.stdout.write(str(note))
        for person in people:  # the dry run: who would be matched to whom
            self.stdout.write(str(person))
