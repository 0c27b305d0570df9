"""Club roles, ordered: each role may do everything the roles below it may."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    PLAYER = "player", _("Player")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    ORGANISER = "organiser", _("Organiser")
    CLUB_ADMIN = "club_admin", _("Club admin")

    @property
    def rank(self) -> int:
        return list(Role).index(self)

    def includes(self, other: "Role") -> bool:
        return self.rank >= other.rank
