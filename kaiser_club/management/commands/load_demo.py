from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils.module_loading import autodiscover_modules

from kaiser_club.demo import BASE_URL, steps


class Command(BaseCommand):
    help = "Loads demo clubs, players and games (safe to run twice: existing demo data is kept)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--base-url",
            default=settings.REPORTS_BASE_URL,
            help="The address the demo is served on, for the links printed "
            "(make demo passes http://HOST:PORT/).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        autodiscover_modules("demo")
        token = BASE_URL.set(options["base_url"])
        try:
            with transaction.atomic():
                for step in steps():
                    step(self.stdout.write)
        finally:
            BASE_URL.reset(token)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
