from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.module_loading import autodiscover_modules

from kaiser_club.demo import steps


class Command(BaseCommand):
    help = "Loads demo clubs, players and games (safe to run twice: existing demo data is kept)."

    def handle(self, *args: Any, **options: Any) -> None:
        autodiscover_modules("demo")
        with transaction.atomic():
            for step in steps():
                step(self.stdout.write)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
