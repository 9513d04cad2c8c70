import type en from "../en/plans";
import type { DeepStrings } from "../types";

const plans: DeepStrings<typeof en> = {};

export default plans;
