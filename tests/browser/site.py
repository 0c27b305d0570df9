"""The pages of a club's day, from the demo data (``manage.py load_demo``) and a double
elimination event: the addresses every-page browser test visits and the screenshot script
takes. Each entry: (a name, the address, whether it needs the organiser signed in)."""

from __future__ import annotations

from django.core.management import call_command

PageList = list[tuple[str, str, bool]]
PARTNERSHIPS = (
    "Desjardins et Bear",
    "Melnyk et Okafor",
    "Tremblay et Kowalchuk",
    "Lavoie et Singh",
    "Gagnon et Yellowquill",
    "Bouchard et Petrenko",
    "Côté et Ratt",
    "Roy et Wiebe",
)


def double_elimination() -> int:
    """Eight teams, double elimination, drawn, one game won at the table and one forfeited."""
    from django.test import TestCase

    from kaiser_club.actors import Actor
    from kaiser_club.models import Club
    from kaiser_club.roles import Role
    from scoring.models import Team
    from tests.factories import member
    from tests.tournaments.helpers import generate, make_event, win_for
    from tournaments.models import Entry, Pairing
    from tournaments.services import actions

    club = Club.objects.get(slug="regina-kaiser")
    event = make_event(teams=8, format="double_elimination", club=club)
    # Names as a club's would be (the helper's "Team 1" reads as English on French pages).
    event.name = "Coupe de la Saskatchewan"
    event.save(update_fields=["name"])
    for entry, name in zip(
        Entry.objects.filter(event=event).order_by("id"), PARTNERSHIPS, strict=True
    ):
        entry.name = name
        entry.save(update_fields=["name"])
        if entry.team_id is not None:
            Team.objects.filter(id=entry.team_id).update(name=name)
    generate(event)
    rows = {p.code: p for p in Pairing.objects.filter(event=event).select_related("home")}
    win_for(rows["W1-1"], rows["W1-1"].home)
    with TestCase.captureOnCommitCallbacks(execute=True):
        actions.pairing_forfeit(
            actor=Actor.of(member(club, Role.ORGANISER)),
            pairing=rows["W1-2"],
            forfeiting="home",
        )
    return event.id


def club_game_with_a_misdeal(club_id: int) -> int:
    """A club evening's game (the club's rules allow a misdeal): a misdeal, then a hand."""
    from django.test import TestCase

    from kaiser_club.models import Club
    from scoring import services
    from scoring.models import Team
    from scoring.rules import MisdealReason, Seat
    from tests.scoring.hands import filler, misdeal, record

    club = Club.objects.get(id=club_id)
    ns, ew = Team.objects.filter(club=club).order_by("id")[:2]
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = services.game_start(
            club=club,
            ns_team=ns,
            ew_team=ew,
            first_dealer=Seat.NORTH,
            rules=services.rules_from(preset_name="club", changes=None),
            preset_name="club",
        )
        record(game, misdeal(MisdealReason.NO_FACE_CARD))
        record(game, filler(2))
    return game.id


def open_sign_ups() -> tuple[int, str]:
    """An open tournament taking sign-ups, two places: two pairs in, a third waiting. Its id
    and the waiting pair's own page."""
    from kaiser_club.actors import Actor
    from kaiser_club.models import Club
    from tests.tournaments.helpers import make_event
    from tournaments.choices import RegistrationMode
    from tournaments.models import Event
    from tournaments.registration_selectors import own_page_path
    from tournaments.services import registrations

    club = Club.objects.get(slug="regina-kaiser")
    event = make_event(teams=0, club=club)
    Event.objects.filter(id=event.id).update(
        name="Omnium de Moose Jaw", registration=RegistrationMode.OPEN, capacity=2
    )
    pairs = [("Aubin", "Dubé"), ("Fontaine", "Nakoochee"), ("Lapointe", "Makokis")]
    waiting = None
    for n, (first, second) in enumerate(pairs):
        waiting = registrations.registration_submit(
            actor=Actor.of(None),
            event_id=event.id,
            people=[
                registrations.Person(f"Marie {first}", f"marie{n}@example.org"),
                registrations.Person(f"Luc {second}", f"luc{n}@example.org"),
            ],
            base_url="http://127.0.0.1",
        )
    assert waiting is not None and waiting.status == "waiting"
    return event.id, own_page_path(waiting.registrants.get(position=1))


def load() -> PageList:
    """Loads the demo and lists its pages."""
    from django.test import TestCase

    from kaiser_club.models import Club, Player
    from scoring.models import Game
    from tournaments.demo import NIGHT_NAME, TOURNAMENT_NAME
    from tournaments.models import Event, Pairing, Season, Table

    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("load_demo", verbosity=0)
    double = double_elimination()
    with TestCase.captureOnCommitCallbacks(execute=True):
        signing_up, waiting_page = open_sign_ups()
    club = Club.objects.get(slug="regina-kaiser")
    t = Event.objects.get(name=TOURNAMENT_NAME)
    night = Event.objects.get(name=NIGHT_NAME)
    finished = (
        Pairing.objects.filter(event=t, round__number=1, game__isnull=False).order_by("id").first()
    )
    assert finished is not None and finished.game_id is not None
    entry = finished.home
    assert entry is not None
    table = Table.objects.filter(event=t).order_by("number").first()
    assert table is not None
    public_player = Player.objects.filter(memberships__club=club, is_public=True).first()
    assert public_player is not None
    season = Season.objects.filter(club=club).first()
    assert season is not None
    game = Game.objects.get(id=finished.game_id)
    e, o = f"/events/{t.id}/", True
    pages: PageList = [
        ("home", "/", o),
        ("events", "/events/", o),
        ("event", e, o),
        ("entries", f"{e}entries/", o),
        ("tables", f"{e}tables/", o),
        ("settings", f"{e}settings/", o),
        ("round 1", f"{e}rounds/1/", o),
        ("round 2", f"{e}rounds/2/", o),
        ("game", f"{e}games/{finished.id}/", o),
        ("game, correcting hand 1", f"{e}games/{finished.id}/?hand=1", o),
        ("reports", f"/events/{t.id}/reports/", o),
        ("new event", "/events/new/", o),
        ("seasons", "/events/seasons/", o),
        ("season", f"/events/seasons/{season.id}/", o),
        ("club night", f"/events/{night.id}/", o),
        ("club night round", f"/events/{night.id}/rounds/2/", o),
        ("bracket (organiser)", f"/events/{double}/bracket/", o),
        ("games", "/games/", o),
        ("score sheet (organiser)", f"/games/{game.id}/", o),
        ("club game with a misdeal", f"/games/{club_game_with_a_misdeal(club.id)}/", o),
        ("clubs", "/clubs/", o),
        ("club", f"/clubs/{club.slug}/", o),
        ("player", f"/players/{public_player.id}/", o),
        ("ratings", f"/players/ratings/{club.slug}/", o),
        ("table", f"/t/{table.code}/", o),
        ("public home", f"/e/{t.id}/", False),
        ("public standings", f"/e/{t.id}/standings/", False),
        ("public round", f"/e/{t.id}/rounds/1/", False),
        ("public score sheet", f"/e/{t.id}/games/{finished.id}/", False),
        ("public live", f"/e/{t.id}/live/", False),
        ("public team", f"/e/{t.id}/teams/{entry.id}/", False),
        ("public player", f"/e/{t.id}/players/{public_player.id}/", False),
        ("public bracket", f"/e/{double}/bracket/", False),
        ("public season", f"/e/seasons/{season.id}/", False),
        ("projector", f"/e/{t.id}/projector/", False),
        ("club night standings", f"/e/{night.id}/standings/", False),
        ("sign-ups (organiser)", f"/events/{signing_up}/sign-ups/", o),
        ("sign-up", f"/e/{signing_up}/register/", False),
        ("a waiting pair's own page", waiting_page, False),
    ]
    return pages
