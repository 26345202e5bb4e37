export * from "./InboundEventsHttp.ts"
