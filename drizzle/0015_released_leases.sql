-- A device that said "stop" keeps its lease row as a marker (expired, released_at set): a media request or a
-- progress report still under way when the stop arrived no longer takes the screen back (playback.server.ts).
ALTER TABLE `playback_leases` ADD `released_at` integer;