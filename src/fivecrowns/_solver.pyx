# placeholder: the compiled core is being written
