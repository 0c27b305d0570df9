from django.contrib import admin

from .models import Club, FormerMembership, Invitation, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "town", "default_preset"]
    search_fields = ["name", "town"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "user", "is_public"]
    search_fields = ["name", "email"]
    raw_id_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["player", "club"]


@admin.register(FormerMembership)
class FormerMembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role", "joined_at", "left_at"]
    list_filter = ["club"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["player", "club"]
    raw_id_fields = ["player"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "created_at", "expires_at", "accepted_at", "revoked_at"]
    list_filter = ["club"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["player", "club"]
    raw_id_fields = ["player", "created_by", "accepted_by"]
    readonly_fields = ["token_digest"]
