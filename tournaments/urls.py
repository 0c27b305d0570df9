"""The organiser's pages, under /events/."""

from django.urls import path

from .views import entries, events, registrations, rounds, seasons, tables, transfer

app_name = "tournaments"
E = "<int:event_id>/"
urlpatterns = [
    path("", events.event_list, name="events"),
    path("new/", events.event_create, name="event-create"),
    path("import/", transfer.event_upload, name="event-import"),
    path("seasons/", seasons.season_list, name="seasons"),
    path("seasons/<int:season_id>/", seasons.season_detail, name="season"),
    path(E, events.event_detail, name="event"),
    path(f"{E}settings/", events.event_settings, name="event-settings"),
    path(f"{E}export.json", transfer.event_download, name="event-export"),
    path(f"{E}generate/", events.event_generate, name="event-generate"),
    path(f"{E}jobs/<int:job_id>/", events.event_job, name="event-job"),
    path(f"{E}bracket/", events.event_bracket, name="bracket"),
    path(f"{E}entries/", entries.entry_list, name="entries"),
    path(f"{E}entries/add/", entries.entry_add, name="entry-add"),
    path(f"{E}entries/import/", entries.entry_import, name="entry-import"),
    path(f"{E}entries/check-in-all/", entries.entries_check_in_all, name="entries-check-in"),
    path(f"{E}entries/<int:entry_id>/edit/", entries.entry_edit, name="entry-edit"),
    path(f"{E}entries/<int:entry_id>/<slug:action>/", entries.entry_action, name="entry-action"),
    path(f"{E}sign-ups/", registrations.registration_list, name="registrations"),
    path(
        f"{E}sign-ups/<int:registration_id>/<slug:action>/",
        registrations.registration_action,
        name="registration-action",
    ),
    path(f"{E}rounds/<int:number>/", rounds.round_detail, name="round"),
    path(f"{E}rounds/<int:number>/playing/", rounds.round_playing, name="round-playing"),
    path(f"{E}rounds/<int:number>/<slug:action>/", rounds.round_action, name="round-action"),
    path(f"{E}games/<int:pairing_id>/", rounds.pairing_detail, name="pairing"),
    path(
        f"{E}games/<int:pairing_id>/<slug:action>/",
        rounds.pairing_action,
        name="pairing-action",
    ),
    path(f"{E}tables/", tables.table_list, name="tables"),
    path(f"{E}tables/add/", tables.table_add, name="table-add"),
    path(f"{E}tables/<int:table_id>/<slug:action>/", tables.table_action, name="table-action"),
]
