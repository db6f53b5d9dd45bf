// The nesting limits, each the same in the custom and the generic form (so what mmatom-opt prints it reads back):
// regions in regions (a module's body is no level: an implicit module is printed as one) and attributes in
// attributes at most 100 deep; all brackets of a text at most 208.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

builtin.module {
  func.func @f() {
    scf.execute_region {
      scf.execute_region {
        scf.execute_region {
          scf.execute_region {
            scf.execute_region {
              scf.execute_region {
                scf.execute_region {
                  scf.execute_region {
                    scf.execute_region {
                      scf.execute_region {
                        scf.execute_region {
                          scf.execute_region {
                            scf.execute_region {
                              scf.execute_region {
                                scf.execute_region {
                                  scf.execute_region {
                                    scf.execute_region {
                                      scf.execute_region {
                                        scf.execute_region {
                                          scf.execute_region {
                                            scf.execute_region {
                                              scf.execute_region {
                                                scf.execute_region {
                                                  scf.execute_region {
                                                    scf.execute_region {
                                                      scf.execute_region {
                                                        scf.execute_region {
                                                          scf.execute_region {
                                                            scf.execute_region {
                                                              scf.execute_region {
                                                                scf.execute_region {
                                                                  scf.execute_region {
                                                                    scf.execute_region {
                                                                      scf.execute_region {
                                                                        scf.execute_region {
                                                                          scf.execute_region {
                                                                            scf.execute_region {
                                                                              scf.execute_region {
                                                                                scf.execute_region {
                                                                                  scf.execute_region {
                                                                                    scf.execute_region {
                                                                                      scf.execute_region {
                                                                                        scf.execute_region {
                                                                                          scf.execute_region {
                                                                                            scf.execute_region {
                                                                                              scf.execute_region {
                                                                                                scf.execute_region {
                                                                                                  scf.execute_region {
                                                                                                    scf.execute_region {
                                                                                                      scf.execute_region {
                                                                                                        scf.execute_region {
                                                                                                          scf.execute_region {
                                                                                                            scf.execute_region {
                                                                                                              scf.execute_region {
                                                                                                                scf.execute_region {
                                                                                                                  scf.execute_region {
                                                                                                                    scf.execute_region {
                                                                                                                      scf.execute_region {
                                                                                                                        scf.execute_region {
                                                                                                                          scf.execute_region {
                                                                                                                            scf.execute_region {
                                                                                                                              scf.execute_region {
                                                                                                                                scf.execute_region {
                                                                                                                                  scf.execute_region {
                                                                                                                                    scf.execute_region {
                                                                                                                                      scf.execute_region {
                                                                                                                                        scf.execute_region {
                                                                                                                                          scf.execute_region {
                                                                                                                                            scf.execute_region {
                                                                                                                                              scf.execute_region {
                                                                                                                                                scf.execute_region {
                                                                                                                                                  scf.execute_region {
                                                                                                                                                    scf.execute_region {
                                                                                                                                                      scf.execute_region {
                                                                                                                                                        scf.execute_region {
                                                                                                                                                          scf.execute_region {
                                                                                                                                                            scf.execute_region {
                                                                                                                                                              scf.execute_region {
                                                                                                                                                                scf.execute_region {
                                                                                                                                                                  scf.execute_region {
                                                                                                                                                                    scf.execute_region {
                                                                                                                                                                      scf.execute_region {
                                                                                                                                                                        scf.execute_region {
                                                                                                                                                                          scf.execute_region {
                                                                                                                                                                            scf.execute_region {
                                                                                                                                                                              scf.execute_region {
                                                                                                                                                                                scf.execute_region {
                                                                                                                                                                                  scf.execute_region {
                                                                                                                                                                                    scf.execute_region {
                                                                                                                                                                                      scf.execute_region {
                                                                                                                                                                                        scf.execute_region {
                                                                                                                                                                                          scf.execute_region {
                                                                                                                                                                                            scf.execute_region {
                                                                                                                                                                                              scf.execute_region {
                                                                                                                                                                                                scf.execute_region {
                                                                                                                                                                                                  scf.execute_region {
                                                                                                                                                                                                    scf.execute_region {
                                                                                                                                                                                                      scf.execute_region {
                                                                                                                                                                                                        scf.execute_region {
                                                                                                                                                                                                          // the 101st region: the function's and 100 of these
                                                                                                                                                                                                          // expected-error@+1 {{regions nest deeper than 100 levels}}
                                                                                                                                                                                                          scf.execute_region {
                                                                                                                                                                                                            scf.yield
                                                                                                                                                                                                          }
                                                                                                                                                                                                          scf.yield
                                                                                                                                                                                                        }
                                                                                                                                                                                                        scf.yield
                                                                                                                                                                                                      }
                                                                                                                                                                                                      scf.yield
                                                                                                                                                                                                    }
                                                                                                                                                                                                    scf.yield
                                                                                                                                                                                                  }
                                                                                                                                                                                                  scf.yield
                                                                                                                                                                                                }
                                                                                                                                                                                                scf.yield
                                                                                                                                                                                              }
                                                                                                                                                                                              scf.yield
                                                                                                                                                                                            }
                                                                                                                                                                                            scf.yield
                                                                                                                                                                                          }
                                                                                                                                                                                          scf.yield
                                                                                                                                                                                        }
                                                                                                                                                                                        scf.yield
                                                                                                                                                                                      }
                                                                                                                                                                                      scf.yield
                                                                                                                                                                                    }
                                                                                                                                                                                    scf.yield
                                                                                                                                                                                  }
                                                                                                                                                                                  scf.yield
                                                                                                                                                                                }
                                                                                                                                                                                scf.yield
                                                                                                                                                                              }
                                                                                                                                                                              scf.yield
                                                                                                                                                                            }
                                                                                                                                                                            scf.yield
                                                                                                                                                                          }
                                                                                                                                                                          scf.yield
                                                                                                                                                                        }
                                                                                                                                                                        scf.yield
                                                                                                                                                                      }
                                                                                                                                                                      scf.yield
                                                                                                                                                                    }
                                                                                                                                                                    scf.yield
                                                                                                                                                                  }
                                                                                                                                                                  scf.yield
                                                                                                                                                                }
                                                                                                                                                                scf.yield
                                                                                                                                                              }
                                                                                                                                                              scf.yield
                                                                                                                                                            }
                                                                                                                                                            scf.yield
                                                                                                                                                          }
                                                                                                                                                          scf.yield
                                                                                                                                                        }
                                                                                                                                                        scf.yield
                                                                                                                                                      }
                                                                                                                                                      scf.yield
                                                                                                                                                    }
                                                                                                                                                    scf.yield
                                                                                                                                                  }
                                                                                                                                                  scf.yield
                                                                                                                                                }
                                                                                                                                                scf.yield
                                                                                                                                              }
                                                                                                                                              scf.yield
                                                                                                                                            }
                                                                                                                                            scf.yield
                                                                                                                                          }
                                                                                                                                          scf.yield
                                                                                                                                        }
                                                                                                                                        scf.yield
                                                                                                                                      }
                                                                                                                                      scf.yield
                                                                                                                                    }
                                                                                                                                    scf.yield
                                                                                                                                  }
                                                                                                                                  scf.yield
                                                                                                                                }
                                                                                                                                scf.yield
                                                                                                                              }
                                                                                                                              scf.yield
                                                                                                                            }
                                                                                                                            scf.yield
                                                                                                                          }
                                                                                                                          scf.yield
                                                                                                                        }
                                                                                                                        scf.yield
                                                                                                                      }
                                                                                                                      scf.yield
                                                                                                                    }
                                                                                                                    scf.yield
                                                                                                                  }
                                                                                                                  scf.yield
                                                                                                                }
                                                                                                                scf.yield
                                                                                                              }
                                                                                                              scf.yield
                                                                                                            }
                                                                                                            scf.yield
                                                                                                          }
                                                                                                          scf.yield
                                                                                                        }
                                                                                                        scf.yield
                                                                                                      }
                                                                                                      scf.yield
                                                                                                    }
                                                                                                    scf.yield
                                                                                                  }
                                                                                                  scf.yield
                                                                                                }
                                                                                                scf.yield
                                                                                              }
                                                                                              scf.yield
                                                                                            }
                                                                                            scf.yield
                                                                                          }
                                                                                          scf.yield
                                                                                        }
                                                                                        scf.yield
                                                                                      }
                                                                                      scf.yield
                                                                                    }
                                                                                    scf.yield
                                                                                  }
                                                                                  scf.yield
                                                                                }
                                                                                scf.yield
                                                                              }
                                                                              scf.yield
                                                                            }
                                                                            scf.yield
                                                                          }
                                                                          scf.yield
                                                                        }
                                                                        scf.yield
                                                                      }
                                                                      scf.yield
                                                                    }
                                                                    scf.yield
                                                                  }
                                                                  scf.yield
                                                                }
                                                                scf.yield
                                                              }
                                                              scf.yield
                                                            }
                                                            scf.yield
                                                          }
                                                          scf.yield
                                                        }
                                                        scf.yield
                                                      }
                                                      scf.yield
                                                    }
                                                    scf.yield
                                                  }
                                                  scf.yield
                                                }
                                                scf.yield
                                              }
                                              scf.yield
                                            }
                                            scf.yield
                                          }
                                          scf.yield
                                        }
                                        scf.yield
                                      }
                                      scf.yield
                                    }
                                    scf.yield
                                  }
                                  scf.yield
                                }
                                scf.yield
                              }
                              scf.yield
                            }
                            scf.yield
                          }
                          scf.yield
                        }
                        scf.yield
                      }
                      scf.yield
                    }
                    scf.yield
                  }
                  scf.yield
                }
                scf.yield
              }
              scf.yield
            }
            scf.yield
          }
          scf.yield
        }
        scf.yield
      }
      scf.yield
    }
    func.return
  }
}

// -----

builtin.module {
  // expected-error@+1 {{nesting deeper than 100 levels of brackets}}
  "test.op"() {x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} : () -> ()
}

// -----

builtin.module {
  // expected-error@+1 {{nesting deeper than 208 levels of brackets}}
  %a = "test.op"() : () -> !mma.frag<A, f16, "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))):1">
}
