"""Player pages, under /players/."""

from django.urls import path

from . import player_views

app_name = "players"
urlpatterns = [
    path("<int:player_id>/", player_views.player_detail, name="detail"),
    path("ratings/<slug:slug>/", player_views.club_ratings, name="club-ratings"),
    path(
        "<int:player_id>/partners/<int:partner_id>/",
        player_views.partnership_detail,
        name="partnership",
    ),
]
