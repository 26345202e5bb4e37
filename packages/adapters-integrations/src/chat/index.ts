export * as ChatMessagingHttp from "./ChatMessagingHttp.ts"
export * as ChatPlatformHttp from "./ChatPlatformHttp.ts"
