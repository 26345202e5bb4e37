export * as ChatPlatformHttp from "./ChatPlatformHttp.ts"
