import type en from "../en/admin";
import type { DeepStrings } from "../types";

const admin: DeepStrings<typeof en> = {};

export default admin;
