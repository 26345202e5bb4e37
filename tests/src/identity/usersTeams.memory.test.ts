import { PortsMemory } from "@svc/adapters-memory"
import { usersTeamsContract } from "./UsersTeamsContract.ts"

usersTeamsContract("in-memory", PortsMemory)
