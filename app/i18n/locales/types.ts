/** The shape of an English catalogue with every leaf widened to string, for the Hausa twin. */
export type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
