CREATE TABLE `kallo_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version` text NOT NULL,
	`migration` text NOT NULL,
	`started_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `plan_periods` ADD `currency` text;--> statement-breakpoint
-- Hand-written: a price keeps the currency it was set in. Migration 0018 dropped `plans`.`currency`; since it was mended it keeps each plan's currency in `plan_currency_before_0018` first, and this gives it back to the plan's prices. A database that took 0018 before then has no such record: its prices stay null here and the next start records CURRENCY for them (what they have been charged in since), in the audit log.
CREATE TABLE IF NOT EXISTS `plan_currency_before_0018` (`plan_id` text PRIMARY KEY NOT NULL, `currency` text NOT NULL);--> statement-breakpoint
UPDATE `plan_periods` SET `currency` = (SELECT `currency` FROM `plan_currency_before_0018` WHERE `plan_currency_before_0018`.`plan_id` = `plan_periods`.`plan_id`);--> statement-breakpoint
DROP TABLE `plan_currency_before_0018`;
