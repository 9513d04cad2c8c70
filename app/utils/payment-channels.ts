/**
 * The ways of paying Paystack's checkout offers, by its own names (its
 * `channels`): the operator turns them on with PAYSTACK_CHANNELS, and the
 * payment page names them in the viewer's language.
 */
export const PAYSTACK_CHANNELS = ["card", "bank_transfer", "ussd", "mobile_money", "bank", "qr"] as const;
export type PaystackChannel = (typeof PAYSTACK_CHANNELS)[number];

/** What Nigerians pay with as much as a card: bank transfer, USSD and mobile money (PAYSTACK_CHANNELS' default). */
export const DEFAULT_PAYSTACK_CHANNELS: readonly PaystackChannel[] = ["card", "bank_transfer", "ussd", "mobile_money"];
