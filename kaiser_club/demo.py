"""Demo data, contributed by each app in its own ``demo`` module.

An app registers a step with ``@demo_step(order)``; ``manage.py load_demo`` finds every app's
``demo`` module and runs the steps in order. So kaiser_club never imports the other apps.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

DemoStep = Callable[[Callable[[str], None]], None]
_steps: list[tuple[int, str, DemoStep]] = []

DEMO_PASSWORD = "kaiser-demo"
# The address the demo is served on, for the links load_demo prints (load_demo --base-url).
BASE_URL: ContextVar[str] = ContextVar("demo_base_url", default="http://127.0.0.1:8000")


def demo_step(order: int) -> Callable[[DemoStep], DemoStep]:
    def register(step: DemoStep) -> DemoStep:
        if all(existing is not step for _, _, existing in _steps):
            _steps.append((order, f"{step.__module__}.{step.__name__}", step))
        return step

    return register


def steps() -> list[DemoStep]:
    return [step for _, _, step in sorted(_steps, key=lambda s: (s[0], s[1]))]


DEMO_CLUB_SLUG = "regina-kaiser"


@demo_step(10)
def people(say: Callable[[str], None]) -> None:
    """Two clubs, twenty players, and a sign-in for each role."""
    from django.contrib.auth import get_user_model

    from .models import Club, Membership, Player
    from .roles import Role

    if Club.objects.filter(slug=DEMO_CLUB_SLUG).exists():
        say("Demo clubs already there; keeping them.")
        return
    User = get_user_model()
    regina = Club.objects.create(
        name="Regina Kaiser Club", slug=DEMO_CLUB_SLUG, town="Regina, SK", default_preset="club"
    )
    Club.objects.create(
        name="Club de Kaiser de Saint-Boniface",
        slug="saint-boniface",
        town="Winnipeg, MB",
        default_preset="saskatchewan",
    )
    User.objects.create_superuser("admin", "admin@example.org", DEMO_PASSWORD)
    names = [
        "Olga Hnatiuk",
        "Walter Kowalchuk",
        "Marie Desjardins",
        "Ron Bear",
        "Irene Sawchuk",
        "Gerald Lavallee",
        "Doris Peters",
        "Ken Yuzik",
        "Lorraine Fiddler",
        "Ed Zacharias",
        "Sylvia Boychuk",
        "Pete Lindgren",
        "Annette Gaudry",
        "Bill Moosomin",
        "Cathy Wozniak",
        "Marcel Fontaine",
        "Helen Kozak",
        "Ray Whitecap",
        "June Andrusiak",
        "Stan Melnyk",
    ]
    roles = {0: Role.CLUB_ADMIN, 1: Role.ORGANISER, 2: Role.SCOREKEEPER}
    logins = {0: "clubadmin", 1: "organiser", 2: "scorekeeper", 3: "player"}
    for index, name in enumerate(names):
        user = None
        if index in logins:
            user = User.objects.create_user(logins[index], password=DEMO_PASSWORD)
        player = Player.objects.create(name=name, user=user, is_public=index % 3 == 0)
        Membership.objects.create(club=regina, player=player, role=roles.get(index, Role.PLAYER))
    say(f"Demo sign-ins (password {DEMO_PASSWORD}): admin, " + ", ".join(logins.values()))


@demo_step(15)
def invitation(say: Callable[[str], None]) -> None:
    """An invitation link for a member without a sign-in, printed (links are shown only once)."""
    from .members.invitations import invitation_create
    from .models import Invitation, Membership

    if Invitation.objects.filter(club__slug=DEMO_CLUB_SLUG).exists():
        return
    membership = (
        Membership.objects.filter(club__slug=DEMO_CLUB_SLUG, player__user__isnull=True)
        .select_related("player")
        .order_by("player__id")
        .first()
    )
    if membership is None:
        return
    made = invitation_create(membership=membership)
    say(
        f"Demo invitation for {membership.player.name} (sign up with it): "
        f"{BASE_URL.get().rstrip('/')}/invitations/{made.token}/"
    )
