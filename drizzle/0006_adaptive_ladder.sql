CREATE TABLE `movie_renditions` (
	`movie_id` text NOT NULL,
	`rung` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`bandwidth` integer DEFAULT 0 NOT NULL,
	`average_bandwidth` integer DEFAULT 0 NOT NULL,
	`codecs` text DEFAULT '' NOT NULL,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`duration_seconds` real DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`ready_at` integer,
	PRIMARY KEY(`movie_id`, `rung`),
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `movie_renditions_status_idx` ON `movie_renditions` (`status`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `data_saver` integer;