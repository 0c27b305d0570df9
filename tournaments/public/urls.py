"""Public pages, under /e/."""

from django.urls import path

from . import views

app_name = "public"
E = "<int:event_id>/"
urlpatterns = [
    path("", views.index, name="index"),
    path(E, views.event_home, name="event"),
    path(f"{E}standings/", views.standings, name="standings"),
    path(f"{E}standings.csv", views.standings_csv, name="standings-csv"),
    path(f"{E}bracket/", views.bracket, name="bracket"),
    path(f"{E}rounds/<int:number>/", views.round_tables, name="round"),
    path(f"{E}games/<int:pairing_id>/", views.game_sheet, name="game"),
    path(f"{E}live/", views.live, name="live"),
    path(f"{E}teams/<int:entry_id>/", views.team, name="team"),
    path(f"{E}players/<int:player_id>/", views.player, name="player"),
    path(f"{E}projector/", views.projector, name="projector"),
    path("seasons/<int:season_id>/", views.season, name="season"),
]
