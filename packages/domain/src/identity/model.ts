/** The identity context's shapes: no services, so clients may import them. */

export * from "./DashboardSession.ts"
export * from "./Member.ts"
export * from "./ReceiveHandle.ts"
export * from "./SignInAllowance.ts"
export * from "./Team.ts"
export * from "./User.ts"
