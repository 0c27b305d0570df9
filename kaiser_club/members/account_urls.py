"""Pages for a person rather than a club: opening an invitation, their page's privacy."""

from django.urls import path

from . import views

urlpatterns = [
    path("invitations/<str:token>/", views.invitation_open, name="invitation"),
    path("account/privacy/", views.player_privacy, name="player-privacy"),
]
