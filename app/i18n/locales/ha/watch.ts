import type en from "../en/watch";
import type { DeepStrings } from "../types";

const watch: DeepStrings<typeof en> = {};

export default watch;
