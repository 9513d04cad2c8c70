const plans = {} as const;

export default plans;
