from django.contrib import admin

from .models import Game, GameChange, Hand, Team


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "player_one", "player_two"]
    search_fields = ["name", "player_one__name", "player_two__name"]
    list_select_related = ["club", "player_one", "player_two"]
    raw_id_fields = ["player_one", "player_two"]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "number",
        "kind",
        "dealer",
        "bidder",
        "bid",
        "contract",
        "trump",
        "bidding_team_tricks",
        "five_hearts",
        "three_spades",
        "ns_score",
        "ew_score",
    )
    show_change_link = True

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False  # hands go through the services, which apply the rules


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "ns_team", "ew_team", "status", "ns_score", "ew_score", "winner"]
    list_filter = ["status", "club", "preset"]
    list_select_related = ["club", "ns_team", "ew_team"]
    raw_id_fields = ["ns_team", "ew_team", "north", "east", "south", "west"]
    readonly_fields = [
        "ns_score",
        "ew_score",
        "dealer",
        "target",
        "bid_out_line",
        "ns_bid_out",
        "ew_bid_out",
        "hand_count",
        "winner",
        "end_reason",
        "ended_at",
        "version",
    ]
    inlines = [HandInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "kind", "bidder", "bid", "contract", "ns_score", "ew_score"]
    list_select_related = ["game"]
    readonly_fields = [f.name for f in Hand._meta.fields]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(GameChange)
class GameChangeAdmin(admin.ModelAdmin):
    list_display = ["game", "hand_number", "action", "by", "by_label", "at"]
    list_filter = ["action"]
    list_select_related = ["game", "by"]
    readonly_fields = [f.name for f in GameChange._meta.fields]
