"""Public pages, under /e/."""

from django.urls import path

from . import registration_views, views

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
    path(f"{E}register/", registration_views.register, name="register"),
    path(f"{E}me/", registration_views.mine, name="mine"),
    path(f"{E}me/<str:secret>/", registration_views.own, name="own"),
    path(f"{E}me/<str:secret>/withdraw/", registration_views.own_withdraw, name="own-withdraw"),
    path(f"{E}me/<str:secret>/stop-emails/", registration_views.own_stop, name="own-stop"),
    path(f"{E}me/<str:secret>/push/", registration_views.own_push, name="own-push"),
    path("seasons/<int:season_id>/", views.season, name="season"),
]
