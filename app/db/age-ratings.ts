/**
 * Age ratings in Nigeria's film board classes (NFVCB): General, Parental
 * Guidance, 12, 12A (12 unless with an adult), 15, 18, and Restricted
 * Exhibition. A title without one is "unrated". A children's profile sees
 * only G and PG, never an unrated title. Shared by the server and the pages.
 */
export const AGE_RATINGS = ["G", "PG", "12", "12A", "15", "18", "RE"] as const;
export type AgeRating = (typeof AGE_RATINGS)[number];
export const CHILDREN_RATINGS: readonly AgeRating[] = ["G", "PG"];

export function isAgeRating(value: unknown): value is AgeRating {
  return typeof value === "string" && (AGE_RATINGS as readonly string[]).includes(value);
}

export function isChildrenRating(rating: string | null | undefined): boolean {
  return rating != null && (CHILDREN_RATINGS as readonly string[]).includes(rating);
}

/** The pictures a profile may wear (drawn by components/profiles/avatar.tsx). */
export const PROFILE_AVATARS = ["sun", "moon", "star", "drum", "lion", "bird", "fish", "tree"] as const;
export type ProfileAvatar = (typeof PROFILE_AVATARS)[number];
