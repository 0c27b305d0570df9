from django.urls import path

from .players import PlayerStatsView

urlpatterns = [
    path("players/<int:player_id>/stats/", PlayerStatsView.as_view(), name="player-stats"),
]
