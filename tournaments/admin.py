"""The events app in Django's admin: every model, read-mostly (the pages and the API are where
events are run; the services keep brackets and results consistent)."""

from django.contrib import admin

from .models import (
    Entry,
    Event,
    GenerationJob,
    Pairing,
    Rollback,
    Round,
    Season,
    Substitution,
    Table,
)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "label", "status", "started_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "kind", "format", "date", "status"]
    list_filter = ["kind", "format", "status", "club"]
    search_fields = ["name", "venue"]
    list_select_related = ["club"]
    inlines = [RoundInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "seed", "rating", "status", "late"]
    list_filter = ["status", "event"]
    search_fields = ["name"]
    list_select_related = ["event"]
    raw_id_fields = ["team", "player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "code_issued_at"]
    list_select_related = ["event"]
    readonly_fields = ["code", "code_issued_at"]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "round", "table", "result", "winner_side"]
    list_filter = ["result", "event"]
    list_select_related = ["event", "round", "table", "home", "away"]
    raw_id_fields = ["home", "away", "home_team", "away_team", "game", "winner_to", "loser_to"]


@admin.register(GenerationJob)
class GenerationJobAdmin(admin.ModelAdmin):
    list_display = ["id", "event", "status", "round_number", "created_at", "finished_at"]
    list_filter = ["status"]
    readonly_fields = ["summary", "error", "started_at", "finished_at"]


@admin.register(Rollback)
class RollbackAdmin(admin.ModelAdmin):
    list_display = ["pairing", "event", "by", "at", "reason"]
    readonly_fields = ["undone"]


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    list_display = ["game", "entry", "replaced", "substitute", "at"]
    raw_id_fields = ["game", "entry", "replaced", "substitute"]
