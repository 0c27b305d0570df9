from django.urls import path

from . import views

app_name = "scoring"
urlpatterns = [
    path("", views.game_list, name="game-list"),
    path("<int:game_id>/", views.game_detail, name="game-detail"),
]
