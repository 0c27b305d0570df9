"""The root URLconf: the one place in kaiser_club that names every app."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from kaiser_club import views
from kaiser_club.api.views import ClubViewSet
from kaiser_club.language_switch import language_choose

club_router = DefaultRouter()
club_router.register("clubs", ClubViewSet, basename="club")

# JSON under /api/, the page elsewhere.
handler404 = "kaiser_club.api.not_found.page_not_found"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", language_choose, name="set_language"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(club_router.urls)),
    path("api/", include("scoring.api.urls")),
    path("api/", include("kaiser_club.api.member_urls")),
    path("api/", include("scoring.api.player_urls")),
    path("api/", include("tournaments.api.urls")),
    path("games/", include("scoring.urls")),
    path("events/", include("tournaments.urls")),
    path("e/", include("tournaments.public.urls")),  # public pages: no sign-in
    path("clubs/", include("kaiser_club.members.urls")),
    path("", include("kaiser_club.members.account_urls")),
    path("players/", include("scoring.player_urls")),
    path("", include("tournaments.reports.urls")),  # events/<id>/reports/: the PDFs
    path("", include("tournaments.table.urls")),  # /t/<code>/ and the table pages
]
