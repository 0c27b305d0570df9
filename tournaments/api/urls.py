"""The events API, mounted under /api/: /api/events/…, /api/seasons/…"""

from django.urls import path
from rest_framework.routers import SimpleRouter
from rest_framework.views import APIView

from . import entries, events, registrations, rounds, tables, transfer

router = SimpleRouter()
router.register("events", events.EventViewSet, basename="event")
router.register("seasons", events.SeasonViewSet, basename="season")

E = "events/<int:pk>/"
# One view per operation, at the addresses the API has always had.
ROUND_ACTIONS: dict[str, type[APIView]] = {
    "start": rounds.RoundStartView,
    "start-waiting": rounds.RoundStartWaitingView,
    "pause": rounds.RoundPauseView,
    "resume": rounds.RoundResumeView,
    "add-minutes": rounds.RoundAddMinutesView,
    "swap-tables": rounds.RoundSwapTablesView,
    "swap-teams": rounds.RoundSwapTeamsView,
}
PAIRING_ACTIONS: dict[str, type[APIView]] = {
    "forfeit": rounds.PairingForfeitView,
    "forfeit-undo": rounds.PairingForfeitUndoView,
    "adjust": rounds.PairingAdjustView,
    "late": rounds.PairingLateView,
    "bye-points": rounds.PairingByePointsView,
    "substitute": rounds.PairingSubstituteView,
    "clock": rounds.PairingClockView,
}
urlpatterns = [
    path("events/import/", transfer.ImportView.as_view(), name="event-import"),
    path(f"{E}export/", transfer.ExportView.as_view(), name="event-export"),
    path(f"{E}rules/", events.RulesView.as_view(), name="event-rules"),
    path(f"{E}standings/", events.StandingsView.as_view(), name="event-standings"),
    path(f"{E}generate/", events.GenerateView.as_view(), name="event-generate"),
    path(f"{E}jobs/<int:job_id>/", events.JobView.as_view(), name="event-job"),
    path(f"{E}entries/", entries.EntryListView.as_view(), name="event-entries"),
    path(f"{E}entries/import/", entries.ImportView.as_view(), name="event-entries-import"),
    path(f"{E}entries/<int:entry_id>/", entries.EntryDetailView.as_view(), name="event-entry"),
    path(
        f"{E}entries/<int:entry_id>/check-in/",
        entries.CheckInView.as_view(),
        name="event-entry-check-in",
    ),
    path(
        f"{E}entries/<int:entry_id>/withdraw/",
        entries.WithdrawView.as_view(),
        name="event-entry-withdraw",
    ),
    path(
        f"{E}entries/<int:entry_id>/reinstate/",
        entries.ReinstateView.as_view(),
        name="event-entry-reinstate",
    ),
    path(
        f"{E}registrations/",
        registrations.RegistrationListView.as_view(),
        name="event-registrations",
    ),
    path(
        f"{E}registrations/<int:registration_id>/<slug:action>/",
        registrations.RegistrationActionView.as_view(),
        name="event-registration-action",
    ),
    path(f"{E}rounds/", rounds.RoundListView.as_view(), name="event-rounds"),
    path(f"{E}rounds/<int:number>/", rounds.RoundDetailView.as_view(), name="event-round"),
    *[
        path(f"{E}rounds/<int:number>/{action}/", view.as_view(), name=f"event-round-{action}")
        for action, view in ROUND_ACTIONS.items()
    ],
    path(f"{E}bracket/", rounds.BracketView.as_view(), name="event-bracket"),
    path(f"{E}pairings/<int:pairing_id>/", rounds.PairingView.as_view(), name="event-pairing"),
    path(
        f"{E}pairings/<int:pairing_id>/rollback/",
        rounds.RollbackView.as_view(),
        name="event-pairing-rollback",
    ),
    path(
        f"{E}pairings/<int:pairing_id>/hands/<int:number>/",
        rounds.CorrectHandView.as_view(),
        name="event-pairing-correct",
    ),
    *[
        path(
            f"{E}pairings/<int:pairing_id>/{action}/",
            view.as_view(),
            name=f"event-pairing-{action}",
        )
        for action, view in PAIRING_ACTIONS.items()
    ],
    path(f"{E}tables/", tables.TableListView.as_view(), name="event-tables"),
    path(f"{E}tables/<int:table_id>/qr.svg", tables.TableQrView.as_view(), name="event-table-qr"),
    path(
        f"{E}tables/<int:table_id>/<slug:action>/",
        tables.TableActionView.as_view(),
        name="event-table-action",
    ),
    path(
        "seasons/<int:pk>/leaderboard/",
        events.SeasonLeaderboardView.as_view(),
        name="season-leaderboard",
    ),
    *router.urls,
]
