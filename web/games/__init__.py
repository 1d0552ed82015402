"""Each game's parts of the pages (`moonshot serve`), named by its registry entry's `page_module`."""
