import type en from "../en/auth";
import type { DeepStrings } from "../types";

const auth: DeepStrings<typeof en> = {};

export default auth;
