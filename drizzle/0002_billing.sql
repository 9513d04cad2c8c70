CREATE TABLE `plan_periods` (
	`plan_id` text NOT NULL,
	`period` text NOT NULL,
	`days` integer NOT NULL,
	`price_minor` integer NOT NULL,
	PRIMARY KEY(`plan_id`, `period`),
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `playback_leases` (
	`account_id` text NOT NULL,
	`device_id` text NOT NULL,
	`movie_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`account_id`, `device_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `playback_leases_account_idx` ON `playback_leases` (`account_id`,`expires_at`);--> statement-breakpoint
ALTER TABLE `passes` ADD `expiry_notified_at` integer;--> statement-breakpoint
CREATE INDEX `passes_starts_idx` ON `passes` (`starts_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `authorization_url` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `failure_reason` text;--> statement-breakpoint
CREATE INDEX `redeem_codes_redeemed_by_idx` ON `redeem_codes` (`redeemed_by`);--> statement-breakpoint
-- Paid plans that already exist get a day, a week and a month pass, priced from their monthly price.
INSERT OR IGNORE INTO `plan_periods` (`plan_id`, `period`, `days`, `price_minor`)
SELECT `id`, 'month', 30, `monthly_price_minor` FROM `plans` WHERE `monthly_price_minor` > 0
UNION ALL SELECT `id`, 'week', 7, CAST(round(`monthly_price_minor` * 0.3) AS integer) FROM `plans` WHERE `monthly_price_minor` > 0
UNION ALL SELECT `id`, 'day', 1, CAST(round(`monthly_price_minor` * 0.07) AS integer) FROM `plans` WHERE `monthly_price_minor` > 0;
