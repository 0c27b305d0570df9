"""Clubs and their members, under /clubs/."""

from django.urls import path

from . import views

app_name = "clubs"
urlpatterns = [
    path("", views.club_list, name="list"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/members/add/", views.member_add, name="member-add"),
    path("<slug:slug>/members/import/", views.members_import, name="members-import"),
    path("<slug:slug>/members/export.csv", views.members_export, name="members-export"),
    path("<slug:slug>/members/merge/", views.members_merge, name="members-merge"),
    path("<slug:slug>/members/past/", views.members_past, name="members-past"),
    path("<slug:slug>/members/<int:membership_id>/role/", views.member_role, name="member-role"),
    path(
        "<slug:slug>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member-remove",
    ),
    path(
        "<slug:slug>/members/<int:membership_id>/invite/",
        views.member_invite,
        name="member-invite",
    ),
]
