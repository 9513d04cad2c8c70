-- Hand-written note: every rung made so far is H.264 + AAC; AV1 + Opus rungs get rows of their own (codec 'av1').
-- Code of 1.5 lives with this table while a reload moves the workers: its reads and writes name the columns
-- they use, its inserts use ON CONFLICT DO NOTHING, and the only writer of 'av1' rows is the new build's
-- background worker, which starts after the old one has stopped.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_movie_renditions` (
	`movie_id` text NOT NULL,
	`rung` integer NOT NULL,
	`codec` text DEFAULT 'h264' NOT NULL,
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
	PRIMARY KEY(`movie_id`, `codec`, `rung`),
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_movie_renditions`("movie_id", "rung", "codec", "width", "height", "status", "bandwidth", "average_bandwidth", "codecs", "size_bytes", "duration_seconds", "created_at", "ready_at") SELECT "movie_id", "rung", 'h264', "width", "height", "status", "bandwidth", "average_bandwidth", "codecs", "size_bytes", "duration_seconds", "created_at", "ready_at" FROM `movie_renditions`;--> statement-breakpoint
DROP TABLE `movie_renditions`;--> statement-breakpoint
ALTER TABLE `__new_movie_renditions` RENAME TO `movie_renditions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `movie_renditions_status_idx` ON `movie_renditions` (`status`);