from django.urls import path
from rest_framework.routers import DefaultRouter

from .views import GameViewSet, PresetListView, TeamViewSet

router = DefaultRouter()
router.register("teams", TeamViewSet, basename="team")
router.register("games", GameViewSet, basename="game")

urlpatterns = [path("presets/", PresetListView.as_view(), name="preset-list"), *router.urls]
