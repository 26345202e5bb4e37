import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { oauthTokensContract } from "./OAuthTokensContract.ts"

oauthTokensContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
