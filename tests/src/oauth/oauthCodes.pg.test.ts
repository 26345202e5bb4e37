import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { oauthCodesContract } from "./OAuthCodesContract.ts"

oauthCodesContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
