CREATE TABLE `film_replacements` (
	`id` text PRIMARY KEY NOT NULL,
	`movie_id` text NOT NULL,
	`requested_by` text,
	`version` integer NOT NULL,
	`status` text DEFAULT 'processing' NOT NULL,
	`failure_reason` text,
	`source_file` text NOT NULL,
	`original_name` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`swapped_at` integer,
	`retired_version` integer,
	`retired_files_removed_at` integer,
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requested_by`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `film_replacements_movie_idx` ON `film_replacements` (`movie_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `film_replacements_version_unique` ON `film_replacements` (`movie_id`,`version`);--> statement-breakpoint
CREATE UNIQUE INDEX `film_replacements_processing_unique` ON `film_replacements` (`movie_id`) WHERE "film_replacements"."status" = 'processing';--> statement-breakpoint
CREATE INDEX `film_replacements_retired_idx` ON `film_replacements` (`status`,`retired_files_removed_at`,`swapped_at`);--> statement-breakpoint
ALTER TABLE `movies` ADD `media_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `movies` ADD `poster_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `resumable_uploads` ADD `replaces_movie_id` text;--> statement-breakpoint
CREATE INDEX `payments_paid_idx` ON `payments` (`status`,`paid_at`);--> statement-breakpoint
CREATE INDEX `watch_events_started_idx` ON `watch_events` (`started_at`);