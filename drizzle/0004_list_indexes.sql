DROP INDEX `movies_published_idx`;--> statement-breakpoint
CREATE INDEX `movies_published_idx` ON `movies` (`status`,`approved`,`uploaded_at`,`id`);--> statement-breakpoint
CREATE INDEX `watch_events_account_movie_idx` ON `watch_events` (`account_id`,`movie_id`,`updated_at`);