from django.urls import path

from .members import MemberDetailView, MemberListView

urlpatterns = [
    path("clubs/<int:club_id>/members/", MemberListView.as_view(), name="club-members"),
    path(
        "clubs/<int:club_id>/members/<int:membership_id>/",
        MemberDetailView.as_view(),
        name="club-member",
    ),
]
