import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { usersTeamsContract } from "./UsersTeamsContract.ts"

usersTeamsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
