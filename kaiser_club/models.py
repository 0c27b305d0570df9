"""The people: clubs, players, and a player's membership of a club with a role."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .roles import Role


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    town = models.CharField(max_length=120, blank=True)
    default_preset = models.CharField(
        max_length=40,
        default="club",
        help_text=_("Rule-set preset for this club's games and club nights."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays. A player may have a sign-in account (``user``), or not."""

    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    is_public = models.BooleanField(
        default=False, help_text=_("Show this player's page to people outside their clubs.")
    )
    host_club = models.ForeignKey(
        "Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="visitors",
        help_text=_(
            "The club that typed this player in as a visitor (at an event, as a substitute). "
            "Members of a club are in its memberships."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    # Looked up by one_membership_per_club's index (club, player): no index of its own.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club"),
            models.CheckConstraint(
                condition=models.Q(role__in=[r.value for r in Role]), name="membership_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} — {self.club} ({self.get_role_display()})"


class FormerMembership(models.Model):
    """A membership that ended: the club's past. The player record stays the club's to see,
    merge and add again (as the same record, with its games and rating), and a person typed in
    later under the same name or email is found, not made twice. Ends when the player becomes
    a member again."""

    # Looked up by one_former_membership_per_club's index (club, player, ...).
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="former_memberships", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="former_memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField()
    left_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("former membership")
        verbose_name_plural = _("former memberships")
        ordering = ["club", "player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player"], name="one_former_membership_per_club"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(player)s — %(club)s (until %(date)s)") % {
            "player": self.player,
            "club": self.club,
            "date": f"{self.left_at:%Y-%m-%d}",
        }


class Invitation(models.Model):
    """A link that lets a person claim a member's player record with a sign-in account.

    Only a digest of the token is stored: the link is shown once, when it is made, and a leaked
    database gives no usable links. A link works once and expires; making a new one for the
    same player revokes the open ones."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    token_digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return gettext("Invitation for %(player)s to %(club)s") % {
            "player": self.player,
            "club": self.club,
        }
