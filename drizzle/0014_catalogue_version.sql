-- A number raised whenever a catalogue list's members or their order by date or by match may change,
-- so a process may keep such lists while it stays the same (catalogue.server.ts, rememberedEntries).
-- Views, plays and ratings do not raise it: lists ordered by them are never kept.
CREATE TABLE `catalogue_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `catalogue_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_movie_insert` AFTER INSERT ON `movies` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_movie_update` AFTER UPDATE OF `id`, `name`, `description`, `cast`, `category_id`, `provider_id`, `status`, `featured`, `approved`, `season_id`, `uploaded_at`, `search_rowid` ON `movies` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_movie_delete` AFTER DELETE ON `movies` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_series_insert` AFTER INSERT ON `series` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_series_update` AFTER UPDATE ON `series` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_series_delete` AFTER DELETE ON `series` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_season_insert` AFTER INSERT ON `seasons` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_season_update` AFTER UPDATE ON `seasons` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_season_delete` AFTER DELETE ON `seasons` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
