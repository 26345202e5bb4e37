import { PortsMemory } from "@svc/domain/memory"
import { usersTeamsContract } from "./UsersTeamsContract.ts"

usersTeamsContract("in-memory", PortsMemory)
